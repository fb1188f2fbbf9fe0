package io.ankusa.store.bench.gate;

/**
 * {@code gauges_bench} alone: the gauge tick ({@code new QueueGauges(queue).measure(now)}) against
 * 10³…10⁶ queued rows and 10…10⁵ tenants (8 active) under 3 000 merging batches/s, gated by {@link
 * GateRule#STANDARD}; the fold of the due family is measured beside it. Same arguments as {@link
 * BenchGate}; exits non-zero when the gate fails.
 */
public final class GaugesGate {
  private GaugesGate() {}

  public static void main(String[] args) {
    System.exit(BenchGate.run(args, "gauges"));
  }
}
