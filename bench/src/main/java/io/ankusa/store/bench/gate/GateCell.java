package io.ankusa.store.bench.gate;

/**
 * One cell of a gate: a queue shape the tick is measured against.
 *
 * @param axis which axis the cell belongs to: {@code "rows"} (queued rows grow, tenants fixed),
 *     {@code "tenants"} (tenants grow, rows fixed) or {@code "ingest"} (a {@link WriterLoad}
 *     ingests beside the tick: see {@link TickProbe.DispatchTick#besideWriter})
 * @param rows queued delivery rows (due, scheduled far ahead, or dead) before the cell starts
 * @param tenants tenants owning them; the writer's hooks go to the same tenants
 * @param active tenants with rows due now; the others' rows are scheduled a day ahead or dead
 * @param ingestPerSecond hooks a second the writer ingests during the cell: at least 1 on the
 *     {@code ingest} axis, 0 on the others
 */
public record GateCell(String axis, long rows, int tenants, int active, int ingestPerSecond) {
  /** The {@code ingest} axis. */
  public static final String INGEST = "ingest";

  public GateCell {
    if (!axis.equals("rows") && !axis.equals("tenants") && !axis.equals(INGEST)) {
      throw new IllegalArgumentException("axis must be rows, tenants or ingest, not " + axis);
    }
    if (tenants < 1 || active < 1 || active > tenants || rows < tenants) {
      throw new IllegalArgumentException(
          "a cell needs 1 <= active <= tenants <= rows; got rows "
              + rows
              + ", tenants "
              + tenants
              + ", active "
              + active);
    }
    if (axis.equals(INGEST) ? ingestPerSecond < 1 : ingestPerSecond != 0) {
      throw new IllegalArgumentException(
          "a cell has a writer (ingestPerSecond >= 1) iff its axis is ingest; got axis "
              + axis
              + ", ingestPerSecond "
              + ingestPerSecond);
    }
  }

  /** A cell without a writer, on the {@code rows} or {@code tenants} axis. */
  public GateCell(String axis, long rows, int tenants, int active) {
    this(axis, rows, tenants, active, 0);
  }

  /**
   * A cell on the {@code ingest} axis: {@code rows} queued first, the writer at {@code
   * ingestPerSecond} throughout.
   */
  public static GateCell ingest(long rows, int tenants, int active, int ingestPerSecond) {
    return new GateCell(INGEST, rows, tenants, active, ingestPerSecond);
  }

  /** Whether a writer ingests during the cell. */
  public boolean besideWriter() {
    return ingestPerSecond > 0;
  }

  /**
   * The value the cell sits at on its axis (for the ingest axis, the writer's target in hooks a
   * second).
   */
  public long axisValue() {
    return switch (axis) {
      case "rows" -> rows;
      case "tenants" -> tenants;
      default -> ingestPerSecond;
    };
  }

  /**
   * A short name: {@code rows=100000 tenants=100 active=8}, with {@code writer=5000/s} on the
   * ingest axis.
   */
  public String label() {
    return "rows="
        + rows
        + " tenants="
        + tenants
        + " active="
        + active
        + (besideWriter() ? " writer=" + ingestPerSecond + "/s" : "");
  }

  /**
   * The cell in the verdict table: {@code rows: 10000 rows, 100 tenants}, {@code ingest: 10000
   * rows, 200 tenants, writer at 5000/s}.
   */
  public String tableName() {
    return axis
        + ": "
        + rows
        + " rows, "
        + tenants
        + " tenants"
        + (besideWriter() ? ", writer at " + ingestPerSecond + "/s" : "");
  }
}
