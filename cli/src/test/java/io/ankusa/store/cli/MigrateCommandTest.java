package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.fixtures.StoreArchive;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrateCommandTest {
  @TempDir Path tmp;

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = AnkusaStore.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void aFormat2FixtureIsPlannedThenMigratedThenVerifiesClean() throws Exception {
    Path archive = tmp.resolve("v2.tar.zst");
    assertThat(run("fixture", "--format", "2", archive.toString())[0]).isEqualTo("0");
    Path dir = tmp.resolve("store");
    StoreArchive.unpack(archive, dir);

    String[] plan = run("migrate", dir.toString(), "--dry-run");
    assertThat(plan[0]).as(plan[2]).isEqualTo("0");
    assertThat(plan[1]).contains("2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters");

    String[] before = run("verify", dir.toString());
    assertThat(before[0]).as("a format-2 store is not a clean format-3 store").isNotEqualTo("0");

    String[] migrated = run("migrate", dir.toString());
    assertThat(migrated[0]).as(migrated[2]).isEqualTo("0");
    assertThat(migrated[1]).contains("format 2 -> 3");

    String[] verify = run("verify", dir.toString());
    assertThat(verify[0]).as(verify[1] + verify[2]).isEqualTo("0");
    assertThat(run("migrate", dir.toString(), "--dry-run")[1]).contains("nothing to do");
  }

  @Test
  void aFixtureOfAnUnknownFormatIsBadInput() {
    assertThat(run("fixture", "--format", "4", tmp.resolve("x.tar.zst").toString())[0]).isEqualTo("2");
  }
}
