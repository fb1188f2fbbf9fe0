package io.ankusa.store.bench.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How big a gate run is. {@link #FULL} is the full grid: 10³…10⁶ queued rows with 100 tenants, and
 * 10, 10³, 10⁵ tenants (2 × 10⁵ rows), 8 active tenants everywhere; the ingest cell starts from 10⁵
 * rows of 200 tenants. {@link #QUICK} stops at 10⁵ rows and 10³ tenants (10⁴ rows), its ingest cell
 * starts from 10⁴ rows, and it runs in under three minutes on a rocksdb store.
 */
public enum GateMode {
  QUICK(List.of(1_000L, 10_000L, 100_000L), List.of(10, 1_000), 10_000L, 10_000L),
  FULL(
      List.of(1_000L, 10_000L, 100_000L, 1_000_000L),
      List.of(10, 1_000, 100_000),
      200_000L,
      100_000L);

  /** Tenants of every cell on the rows axis. */
  public static final int ROWS_AXIS_TENANTS = 100;

  /** Tenants with rows due now, in every cell. */
  public static final int ACTIVE_TENANTS = 8;

  /**
   * Tenants of the ingest cell: the population's and the writer's, as many as the sustained bench's
   * workload.
   */
  public static final int INGEST_TENANTS = 200;

  /**
   * The writer's rate in the ingest cell unless {@code --ingest-rate} says otherwise: hooks a
   * second the writer sustains on rocksdb and lmdb alike on a two-core machine, the dispatcher
   * keeping up.
   */
  public static final int DEFAULT_INGEST_PER_SECOND = 5_000;

  private final List<Long> rowsAxis;
  private final List<Integer> tenantsAxis;
  private final long tenantsAxisRows;
  private final long ingestRows;

  GateMode(List<Long> rowsAxis, List<Integer> tenantsAxis, long tenantsAxisRows, long ingestRows) {
    this.rowsAxis = rowsAxis;
    this.tenantsAxis = tenantsAxis;
    this.tenantsAxisRows = tenantsAxisRows;
    this.ingestRows = ingestRows;
  }

  /**
   * Every cell of this mode: the rows axis, the tenants axis, then (unless {@code ingestPerSecond}
   * is 0) the ingest cell with the writer at {@code ingestPerSecond} hooks a second.
   */
  public List<GateCell> cells(int ingestPerSecond) {
    if (ingestPerSecond < 0) {
      throw new IllegalArgumentException(
          "the ingest rate must be 0 (no ingest cell) or more, not " + ingestPerSecond);
    }
    List<GateCell> cells = new ArrayList<>(cells());
    if (ingestPerSecond > 0) {
      cells.add(GateCell.ingest(ingestRows, INGEST_TENANTS, ACTIVE_TENANTS, ingestPerSecond));
    }
    return cells;
  }

  /** The cells without a writer: the rows axis, then the tenants axis. */
  public List<GateCell> cells() {
    List<GateCell> cells = new ArrayList<>();
    for (long rows : rowsAxis) {
      cells.add(new GateCell("rows", rows, ROWS_AXIS_TENANTS, ACTIVE_TENANTS));
    }
    for (int tenants : tenantsAxis) {
      cells.add(
          new GateCell(
              "tenants",
              Math.max(tenantsAxisRows, tenants),
              tenants,
              Math.min(ACTIVE_TENANTS, tenants)));
    }
    return cells;
  }

  /** {@code quick} or {@code full}, case-insensitive. */
  public static GateMode parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--mode must be quick or full, not '" + s + "'", e);
    }
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
