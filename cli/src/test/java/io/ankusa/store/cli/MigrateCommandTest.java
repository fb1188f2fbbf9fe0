package io.ankusa.store.cli;

import static io.ankusa.store.cli.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrateCommandTest {
  @TempDir Path tmp;

  @Test
  void aFormat2FixtureIsPlannedThenMigratedThenVerifiesClean() throws Exception {
    Path archive = tmp.resolve("v2.tar.zst");
    assertThat(run("fixture", "--format", "2", archive.toString()).code()).isEqualTo(0);
    Path dir = tmp.resolve("store");
    StoreArchive.unpack(archive, dir);

    CommandRun plan = run("migrate", dir.toString(), "--dry-run");
    assertThat(plan.code()).as(plan.err()).isEqualTo(0);
    assertThat(plan.out())
        .contains("2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters");

    CommandRun before = run("verify", dir.toString());
    assertThat(before.code()).as("a format-2 store is not a clean format-3 store").isNotEqualTo(0);

    CommandRun migrated = run("migrate", dir.toString());
    assertThat(migrated.code()).as(migrated.err()).isEqualTo(0);
    assertThat(migrated.out()).contains("format 2 -> 3");

    CommandRun verify = run("verify", dir.toString());
    assertThat(verify.code()).as(verify.out() + verify.err()).isEqualTo(0);
    assertThat(run("migrate", dir.toString(), "--dry-run").out()).contains("nothing to do");
  }

  @Test
  void aFixtureOfAnUnknownFormatIsBadInput() {
    assertThat(run("fixture", "--format", "4", tmp.resolve("x.tar.zst").toString()).code())
        .isEqualTo(2);
  }
}
