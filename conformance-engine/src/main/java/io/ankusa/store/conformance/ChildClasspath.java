package io.ankusa.store.conformance;

import java.io.File;

/**
 * The classpath of the suite's child JVMs (the lock probe, the durability and migration children):
 * the parent's {@code java.class.path} plus the entries of the system property {@value #PROPERTY},
 * which the launcher sets to the jars and directories of its {@code --jar}, so a backend loaded
 * from them is found in the child too.
 */
public final class ChildClasspath {
  /**
   * Extra classpath entries, separated by the path separator, that a child JVM gets beyond {@code
   * java.class.path}.
   */
  public static final String PROPERTY = "ankusa.conformance.classpath";

  private ChildClasspath() {}

  /** The classpath to give a child JVM. */
  public static String get() {
    String extra = System.getProperty(PROPERTY, "");
    String own = System.getProperty("java.class.path");
    return extra.isBlank() ? own : own + File.pathSeparator + extra;
  }
}
