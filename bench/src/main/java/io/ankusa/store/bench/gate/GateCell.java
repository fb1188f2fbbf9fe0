package io.ankusa.store.bench.gate;

/**
 * One cell of a gate: a queue shape the tick is measured against.
 *
 * @param axis which axis the cell belongs to: {@code "rows"} (queued rows grow, tenants fixed) or
 *     {@code "tenants"} (tenants grow, rows fixed)
 * @param rows queued delivery rows (due, scheduled far ahead, or dead)
 * @param tenants tenants owning them
 * @param active tenants with rows due now; the others' rows are scheduled a day ahead or dead
 */
public record GateCell(String axis, long rows, int tenants, int active) {
  public GateCell {
    if (!axis.equals("rows") && !axis.equals("tenants")) {
      throw new IllegalArgumentException("axis must be rows or tenants, not " + axis);
    }
    if (tenants < 1 || active < 1 || active > tenants || rows < tenants) {
      throw new IllegalArgumentException(
          "a cell needs 1 <= active <= tenants <= rows; got rows " + rows + ", tenants " + tenants + ", active " + active);
    }
  }

  /** The value the cell sits at on its axis. */
  public long axisValue() {
    return axis.equals("rows") ? rows : tenants;
  }

  /** A short name: {@code rows=100000 tenants=100 active=8}. */
  public String label() {
    return "rows=" + rows + " tenants=" + tenants + " active=" + active;
  }
}
