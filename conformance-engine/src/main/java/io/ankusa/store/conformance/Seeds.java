package io.ankusa.store.conformance;

import java.util.OptionalLong;

/**
 * The one seed property of the suite, {@code -Dankusa.seed=N}: it pins jqwik's seed for every
 * property of a conformance layer ({@link ReplayHook}) and the random choices of the tests jqwik
 * does not drive (the kill tests, the concurrent transition rounds), which take their seed from
 * {@link #seed()}. Without it jqwik picks its seeds and {@link #seed()} reads the clock. Every
 * failure names the seed and the command that replays it ({@link #replay}); with {@link
 * CaseSelection}'s {@code -Dankusa.conformance.only} the replay runs that one case, inherited or
 * not.
 */
public final class Seeds {
  /** The system property that fixes the seed. */
  public static final String PROPERTY = "ankusa.seed";

  /** The seed the running case took from {@link #seed()}, for its replay hint. */
  private static final ThreadLocal<Long> USED = new ThreadLocal<>();

  /** The case running on this thread ({@code Type#method}), set by {@link ReplayHook}. */
  private static final ThreadLocal<String> CASE = new ThreadLocal<>();

  private Seeds() {}

  /**
   * The seed {@code ankusa.seed} pins, if it is set and not blank.
   *
   * @throws IllegalArgumentException if it is set to something that is not a whole number
   */
  public static OptionalLong pinned() {
    String value = System.getProperty(PROPERTY, "").strip();
    if (value.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          PROPERTY + " must be a whole number (a seed a failure printed), got '" + value + "'", e);
    }
  }

  /**
   * The seed to use: {@code ankusa.seed} when set, else the clock. Remembered for the case's replay
   * hint.
   */
  public static long seed() {
    long seed = pinned().orElseGet(System::nanoTime);
    USED.set(seed);
    return seed;
  }

  /**
   * How a failure names the seed: {@code "seed N (replay: -Dankusa.seed=N
   * -Dankusa.conformance.only=Type#case)"}, the case part when a conformance case is running on
   * this thread.
   */
  public static String replay(long seed) {
    String only = CASE.get();
    return "seed "
        + seed
        + " (replay: -D"
        + PROPERTY
        + "="
        + seed
        + (only == null ? "" : " -D" + CaseSelection.PROPERTY + "=" + only)
        + ")";
  }

  /** Marks {@code caseName} as running on this thread and forgets the seed of the previous case. */
  static void caseStarted(String caseName) {
    CASE.set(caseName);
    USED.remove();
  }

  /**
   * The seed the case running on this thread took from {@link #seed()}, or null; clears the case.
   */
  static Long caseFinished() {
    Long used = USED.get();
    USED.remove();
    CASE.remove();
    return used;
  }
}
