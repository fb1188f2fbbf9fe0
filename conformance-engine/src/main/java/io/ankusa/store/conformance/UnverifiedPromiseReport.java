package io.ankusa.store.conformance;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints every promise of the conformance suite that a test run did not check, one line each, when
 * the run ends: {@code UNVERIFIED <promise>: <reason>} — a case skipped because the backend does
 * not claim a capability, or ended unverified with what the backend did (an engine that does not
 * claim damage detection, damaged anyway). A skip is never quiet: a build that passes says which
 * promises it did not prove. Only cases of the suite's layers ({@link ConformanceSuite} subclasses)
 * are listed.
 *
 * <p>Registered as a JUnit Platform listener by service file, so any run of the suite prints it: a
 * backend's {@code mvn verify} (surefire) as much as an IDE. It writes to standard output, as the
 * test engine's own reports do: it is the test run's console report, not library logging. {@code
 * ConformanceRunner}'s summary prints the same lines per layer.
 *
 * <p>Thread-safe: cases may finish on several threads. The lines of one suite class are printed
 * when its container finishes.
 */
public final class UnverifiedPromiseReport implements TestExecutionListener {
  /** The lines of each suite class still running, by class name, in the order they came. */
  private final Map<String, List<String>> pending = new LinkedHashMap<>();

  private final PrintStream out;
  private volatile TestPlan plan;

  /** The listener the service file registers: prints to standard output. */
  public UnverifiedPromiseReport() {
    this(System.out);
  }

  /**
   * A listener that prints to {@code out}, for a launcher that registers it by hand (a test of the
   * report).
   */
  public UnverifiedPromiseReport(PrintStream out) {
    this.out = out;
  }

  /** The line for one promise not checked: {@code UNVERIFIED <promise>: <reason>}. */
  public static String line(String promise, String reason) {
    return "UNVERIFIED " + promise + ": " + reason;
  }

  @Override
  public void testPlanExecutionStarted(TestPlan started) {
    plan = started;
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    record(id, firstLine(reason));
  }

  /**
   * Records an aborted case; when a suite class's container finishes, prints its lines (while the
   * class still counts as running, so a build tool that files output by class keeps them with it).
   */
  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    if (id.isTest() && result.getStatus() == TestExecutionResult.Status.ABORTED) {
      String reason =
          result
              .getThrowable()
              .map(Throwable::getMessage)
              .map(UnverifiedPromiseReport::firstLine)
              .orElse("aborted without a reason");
      record(id, reason);
    }
    id.getSource()
        .filter(ClassSource.class::isInstance)
        .map(c -> ((ClassSource) c).getClassName())
        .ifPresent(this::print);
  }

  /** Prints what is left (cases whose class container was not reported). */
  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    List<String> classes;
    synchronized (pending) {
      classes = List.copyOf(pending.keySet());
    }
    classes.forEach(this::print);
  }

  /**
   * Files the line of a case of a conformance layer under its suite class: the class container the
   * case runs in (a case declared in a topic interface names the interface as its source).
   */
  private void record(TestIdentifier id, String reason) {
    if (!(id.getSource().orElse(null) instanceof MethodSource method)) {
      return;
    }
    String suite = method.getClassName();
    TestPlan known = plan;
    for (Optional<TestIdentifier> up = known == null ? Optional.empty() : known.getParent(id);
        up.isPresent();
        up = known.getParent(up.get())) {
      if (up.get().getSource().orElse(null) instanceof ClassSource c) {
        suite = c.getClassName();
        break;
      }
    }
    if (isConformanceSuite(suite)) {
      String line = line(method.getMethodName(), reason);
      synchronized (pending) {
        pending.computeIfAbsent(suite, c -> new ArrayList<>()).add(line);
      }
    }
  }

  private void print(String className) {
    List<String> lines;
    synchronized (pending) {
      lines = pending.remove(className);
    }
    if (lines != null) {
      out.println(
          "ankusa-store conformance: "
              + lines.size()
              + " promise(s) not checked by "
              + className
              + ":");
      lines.forEach(out::println);
      out.flush();
    }
  }

  private static boolean isConformanceSuite(String className) {
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      return ConformanceSuite.class.isAssignableFrom(Class.forName(className, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * The first line of a message, stripped; empty for null. Public for the queue layers' {@code
   * SuiteRun}, which reports a skip's reason as this report prints it.
   */
  public static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    String trimmed = s.strip();
    int nl = trimmed.indexOf('\n');
    return nl < 0 ? trimmed : trimmed.substring(0, nl).strip();
  }
}
