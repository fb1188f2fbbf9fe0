package io.ankusa.store.queue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The scan cursor on its own: start, finish, reports, several scans at once, the periodic rewind.
 * Its two uses are covered on every backend: the marker floor by {@code
 * aTickScansTheMarkersFromTheFirstOneTheLastTickSaw}, the reclaim cursor by {@code
 * reclaimResumesWhereItStoppedAndSeesMarkersPutBehindIt}.
 */
class ScanCursorTest {
  /** A cursor whose first (rewinding) scan is spent: the next scans start at its position. */
  private static ScanCursor afterFirstScan(long position) {
    ScanCursor c = new ScanCursor();
    assertThat(c.start()).as("the first scan starts at the head").isZero();
    c.finish(position);
    return c;
  }

  @Test
  void aScanStartsWhereTheLastOneFinished() {
    ScanCursor c = afterFirstScan(40);
    assertThat(c.start()).isEqualTo(40);
    c.finish(55);
    assertThat(c.peek()).isEqualTo(55);
    assertThat(c.start()).isEqualTo(55);
  }

  @Test
  void aReportBehindThePositionLowersIt() {
    ScanCursor c = afterFirstScan(40);
    c.lower(70);
    assertThat(c.peek()).as("a report ahead of the position").isEqualTo(40);
    c.lower(12);
    assertThat(c.peek()).as("a report behind it").isEqualTo(12);
  }

  @Test
  void aReportDuringAScanKeepsItsFinishFromPassingIt() {
    ScanCursor c = afterFirstScan(40);
    assertThat(c.start()).isEqualTo(40);
    c.lower(45); // put behind the scan's progress, reported while it runs
    c.finish(60);
    assertThat(c.peek()).isEqualTo(45);
  }

  @Test
  void reportsAreKeptUntilTheLastOfSeveralScansFinishes() {
    ScanCursor c = afterFirstScan(40);
    c.start();
    c.start();
    c.lower(50);
    c.finish(60);
    assertThat(c.peek()).as("the first scan finished").isEqualTo(50);
    c.finish(70);
    assertThat(c.peek())
        .as("the second scan finished: the report made while it ran still holds")
        .isEqualTo(50);
    c.start();
    c.finish(80);
    assertThat(c.peek()).as("a later scan, with no report while it ran").isEqualTo(80);
  }

  @Test
  void everyRewindEveryThScanStartsAtTheHead() {
    ScanCursor c = afterFirstScan(40);
    for (int i = 1; i < ScanCursor.REWIND_EVERY; i++) {
      assertThat(c.start()).as("scan %d", i + 1).isEqualTo(40);
      c.finish(40);
    }
    assertThat(c.start()).as("scan %d", ScanCursor.REWIND_EVERY + 1).isZero();
    c.finish(40);
    assertThat(c.start()).isEqualTo(40);
  }
}
