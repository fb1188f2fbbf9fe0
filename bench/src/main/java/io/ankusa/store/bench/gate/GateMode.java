package io.ankusa.store.bench.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How big a gate run is. {@link #FULL} is the full grid: 10³…10⁶ queued rows with 100 tenants, and
 * 10, 10³, 10⁵ tenants (2 × 10⁵ rows), 8 active tenants everywhere. {@link #QUICK} stops at 10⁵ rows
 * and 10³ tenants (10⁴ rows) and runs in under three minutes on a rocksdb store.
 */
public enum GateMode {
  QUICK(List.of(1_000L, 10_000L, 100_000L), List.of(10, 1_000), 10_000L),
  FULL(List.of(1_000L, 10_000L, 100_000L, 1_000_000L), List.of(10, 1_000, 100_000), 200_000L);

  /** Tenants of every cell on the rows axis. */
  public static final int ROWS_AXIS_TENANTS = 100;
  /** Tenants with rows due now, in every cell. */
  public static final int ACTIVE_TENANTS = 8;

  private final List<Long> rowsAxis;
  private final List<Integer> tenantsAxis;
  private final long tenantsAxisRows;

  GateMode(List<Long> rowsAxis, List<Integer> tenantsAxis, long tenantsAxisRows) {
    this.rowsAxis = rowsAxis;
    this.tenantsAxis = tenantsAxis;
    this.tenantsAxisRows = tenantsAxisRows;
  }

  /** Every cell of this mode: the rows axis, then the tenants axis. */
  public List<GateCell> cells() {
    List<GateCell> cells = new ArrayList<>();
    for (long rows : rowsAxis) {
      cells.add(new GateCell("rows", rows, ROWS_AXIS_TENANTS, ACTIVE_TENANTS));
    }
    for (int tenants : tenantsAxis) {
      cells.add(new GateCell("tenants", Math.max(tenantsAxisRows, tenants), tenants, Math.min(ACTIVE_TENANTS, tenants)));
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
