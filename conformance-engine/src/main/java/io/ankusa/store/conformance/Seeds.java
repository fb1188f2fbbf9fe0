package io.ankusa.store.conformance;

/**
 * The one seed property of the randomized tests that jqwik does not drive (the kill tests, the
 * concurrent transition rounds): {@code -Dankusa.seed=N} replays what they chose at random; without
 * it the seed comes from the clock. Every failure names the seed with {@link #replay}.
 */
public final class Seeds {
  /** The system property that fixes the seed. */
  public static final String PROPERTY = "ankusa.seed";

  private Seeds() {}

  /** The seed to use: {@code ankusa.seed} when set, else the clock. */
  public static long seed() {
    return Long.getLong(PROPERTY, System.nanoTime());
  }

  /** How a failure names the seed: {@code "seed N (replay with -Dankusa.seed=N)"}. */
  public static String replay(long seed) {
    return "seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
  }
}
