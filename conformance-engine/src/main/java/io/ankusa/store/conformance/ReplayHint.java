package io.ankusa.store.conformance;

/**
 * Attached to a failing case's exception as a suppressed exception by {@link ReplayHook}: the case
 * ({@code Type#method}) and the seed that replay it, and the message that says how. Not thrown.
 */
public final class ReplayHint extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String caseName;
  private final String seed;

  ReplayHint(String caseName, String seed) {
    super(message(caseName, seed), null, false, false);
    this.caseName = caseName;
    this.seed = seed;
  }

  /** The case as {@code -Dankusa.conformance.only} and the launcher's {@code --only} take it. */
  public String caseName() {
    return caseName;
  }

  /**
   * The seed as {@code -Dankusa.seed} and the launcher's {@code --seed} take it, or null if none
   * was used.
   */
  public String seed() {
    return seed;
  }

  /**
   * A seed replays a property's samples only under the same number of tries: the hint carries it.
   */
  static final String TRIES_PROPERTY = "ankusa.conformance.tries";

  private static String message(String caseName, String seed) {
    String seedArg = seed == null ? "" : " -D" + Seeds.PROPERTY + "=" + seed;
    String tries = System.getProperty(TRIES_PROPERTY);
    boolean triesSet = tries != null && !tries.isBlank();
    return "replay this case: mvn verify -D"
        + CaseSelection.PROPERTY
        + "="
        + caseName
        + seedArg
        + (triesSet ? " -D" + TRIES_PROPERTY + "=" + tries : "")
        + " (in the module of the test class; ankusa-store conformance takes --only "
        + caseName
        + (seed == null ? "" : " --seed " + seed)
        + (triesSet ? " --tries " + tries : "")
        + ")";
  }
}
