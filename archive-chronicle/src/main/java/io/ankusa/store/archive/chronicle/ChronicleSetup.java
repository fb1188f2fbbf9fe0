package io.ankusa.store.archive.chronicle;

/**
 * What must happen before the first Chronicle class of this JVM loads. Chronicle Queue sends usage
 * analytics over the network and writes files under the home directory unless the system property
 * {@value #ANALYTICS_PROPERTY} is true. A storage library must not phone home, so when the property
 * is not set at all this sets it to {@code true}; an operator who sets it (to anything) keeps their
 * choice. The same goes for {@value #ANNOUNCER_PROPERTY}: unless told not to, Chronicle logs a
 * banner asking for an e-mail address, which is surprise output in a service's log.
 *
 * <p>Called from the static initializers of {@link ChronicleArchiveSink} and {@link
 * ChronicleArchiveReader}, which run before either class touches a Chronicle class. Code that loads
 * Chronicle itself before this module should pass {@code -Dchronicle.analytics.disable=true}.
 */
final class ChronicleSetup {
  static final String ANALYTICS_PROPERTY = "chronicle.analytics.disable";
  static final String ANNOUNCER_PROPERTY = "chronicle.announcer.disable";

  private ChronicleSetup() {}

  /** Idempotent. */
  static void silenceUnlessConfigured() {
    synchronized (ChronicleSetup.class) {
      for (String property : new String[] {ANALYTICS_PROPERTY, ANNOUNCER_PROPERTY}) {
        if (System.getProperty(property) == null) {
          System.setProperty(property, "true");
        }
      }
    }
  }
}
