package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskCpuTest {
  @Test
  void utimeAndStimeAreTheFourteenthAndFifteenthFields() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // …
    String afterName = "S 1 2 3 4 5 6 7 8 9 10 111 22 0 0 20 0 40 0";
    assertThat(TaskCpu.ticksOf(afterName)).isEqualTo(133);
  }

  @Test
  void threadsAreGroupedByNameWithoutDigits() {
    assertThat(TaskCpu.group("ingest-producer-17")).isEqualTo("ingest-producer-");
    assertThat(TaskCpu.group("rocksdb:low")).isEqualTo("rocksdb:low");
    assertThat(TaskCpu.group("C2 CompilerThre")).isEqualTo("C CompilerThre");
  }

  @Test
  void aReadingCountsEachGroupsTicksSinceAnEarlierOneLargestFirst() {
    TaskCpu.Reading before = new TaskCpu.Reading(Map.of(1L, "a", 2L, "b"), Map.of(1L, 10L, 2L, 5L));
    TaskCpu.Reading after =
        new TaskCpu.Reading(
            Map.of(1L, "a", 2L, "b", 3L, "b", 4L, "c"), Map.of(1L, 11L, 2L, 9L, 3L, 2L, 4L, 0L));
    assertThat(after.millisSince(before)).containsExactly(Map.entry("b", 60L), Map.entry("a", 10L));
  }

  @Test
  void thisProcessHasThreadsWithCpuOnLinux() {
    TaskCpu.Reading now = TaskCpu.read();
    if (System.getProperty("os.name").startsWith("Linux")) {
      assertThat(now.names()).hasSizeGreaterThan(1);
      assertThat(now.ticks().values().stream().mapToLong(Long::longValue).sum()).isPositive();
    } else {
      assertThat(now.names()).isEmpty();
    }
  }
}
