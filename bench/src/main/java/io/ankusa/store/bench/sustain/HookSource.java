package io.ankusa.store.bench.sustain;

import io.ankusa.store.queue.IngestRequest;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The hooks of the sustained-throughput bench, the demo's default workload without duplicates: tenant
 * {@code i} of {@code tenants} is picked with weight {@code 1/(i+1)} (tenant 0 files under {@code
 * "default"}), one sink in three of 1–3, and one hook in four goes to two sinks (about 1.25 delivery rows
 * a hook); payloads of 200–2 000 bytes; each hook its own idempotency key. Not thread-safe: one per
 * producer thread.
 */
final class HookSource {
  private final SplittableRandom random;
  private final double[] cumulative;
  private final String prefix;
  private long n;

  /** A source for producer {@code producer} over {@code tenants} tenants, seeded by the producer. */
  HookSource(int producer, int tenants) {
    this.random = new SplittableRandom(1000 + producer);
    this.cumulative = new double[tenants];
    double total = 0;
    for (int i = 0; i < tenants; i++) {
      total += 1.0 / (i + 1);
      cumulative[i] = total;
    }
    this.prefix = "s" + producer + "-";
  }

  /** The next hook, received at {@code now}. */
  IngestRequest next(long now) {
    double total = cumulative[cumulative.length - 1];
    int tenant = Math.min(Math.abs(Arrays.binarySearch(cumulative, random.nextDouble() * total) + 1),
        cumulative.length - 1);
    List<Integer> sinks = random.nextInt(4) == 0 ? List.of(1, 2) : List.of(1 + random.nextInt(3));
    byte[] payload = new byte[200 + random.nextInt(1_800)];
    random.nextBytes(payload);
    String key = prefix + n++;
    return new IngestRequest(tenant == 0 ? null : "tenant-" + tenant, "bench-source", key, key, now, sinks, payload);
  }
}
