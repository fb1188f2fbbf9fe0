package io.ankusa.store.bench.gate;

/**
 * {@code dispatch_tick_bench} alone: {@code Dispatcher.tick(now)} as the runtime runs it ({@link
 * TickProbe.DispatchTick}), over the same cells and rule as {@link GaugesGate}, and the ingest cell
 * where a writer ingests beside the tick ({@link RaceRound}). Same arguments as {@link BenchGate};
 * exits non-zero when the gate fails.
 */
public final class DispatchTickGate {
  private DispatchTickGate() {}

  public static void main(String[] args) {
    System.exit(BenchGate.run(args, "dispatch"));
  }
}
