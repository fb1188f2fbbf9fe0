package io.ankusa.store.bench.gate;

/**
 * {@code dispatch_tick_bench} alone: {@code ActiveIndex.activeTenants} plus {@code
 * DueIndex.dueForTenant} for each active tenant (read-only), over the same cells and rule as {@link
 * GaugesGate}. Same arguments as {@link BenchGate}; exits non-zero when the gate fails.
 */
public final class DispatchTickGate {
  private DispatchTickGate() {}

  public static void main(String[] args) {
    System.exit(BenchGate.run(args, "dispatch"));
  }
}
