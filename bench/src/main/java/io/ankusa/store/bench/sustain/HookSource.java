package io.ankusa.store.bench.sustain;

import io.ankusa.store.queue.IngestRequest;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * The hooks of the sustained-throughput bench, the demo's default workload without duplicates:
 * tenant {@code i} of {@code tenants} is picked with weight {@code 1/(i+1)} (named by {@link
 * #DEMO_TENANTS} unless the caller names them; the gate's writer cell files them under its
 * population's tenants), one sink in three of 1–3, and one hook in four goes to two sinks (about
 * 1.25 delivery rows a hook); payloads of 200–2 000 bytes; each hook its own idempotency key. Not
 * thread-safe: one per producer thread.
 */
public final class HookSource {
  /**
   * The sustained bench's tenant names: tenant 0 files under {@code "default"}, tenant {@code i} as
   * {@code "tenant-i"}.
   */
  public static final IntFunction<String> DEMO_TENANTS = i -> i == 0 ? null : "tenant-" + i;

  private final SplittableRandom random;
  private final double[] cumulative;
  private final String prefix;
  private final IntFunction<String> tenantName;
  private long n;

  /**
   * A source for producer {@code producer} over {@code tenants} tenants named by {@link
   * #DEMO_TENANTS}.
   */
  HookSource(int producer, int tenants) {
    this(producer, tenants, DEMO_TENANTS);
  }

  /**
   * A source for producer {@code producer} over {@code tenants} tenants, seeded by the producer;
   * tenant {@code i} (0 the heaviest) is filed under {@code tenantName.apply(i)} (null: the default
   * tenant).
   */
  public HookSource(int producer, int tenants, IntFunction<String> tenantName) {
    this.tenantName = tenantName;
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
  public IngestRequest next(long now) {
    double total = cumulative[cumulative.length - 1];
    int tenant =
        Math.min(
            Math.abs(Arrays.binarySearch(cumulative, random.nextDouble() * total) + 1),
            cumulative.length - 1);
    List<Integer> sinks = random.nextInt(4) == 0 ? List.of(1, 2) : List.of(1 + random.nextInt(3));
    byte[] payload = new byte[200 + random.nextInt(1_800)];
    random.nextBytes(payload);
    String key = prefix + n++;
    return new IngestRequest(
        tenantName.apply(tenant), "bench-source", key, key, now, sinks, payload);
  }
}
