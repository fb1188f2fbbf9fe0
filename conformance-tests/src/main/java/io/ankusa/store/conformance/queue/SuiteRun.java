package io.ankusa.store.conformance.queue;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.ankusa.store.conformance.CaseSelection;
import io.ankusa.store.conformance.ReplayHint;
import io.ankusa.store.conformance.SelectedCasesFilter;
import io.ankusa.store.conformance.UnverifiedPromiseReport;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The outcome of running one suite class through the JUnit Platform Launcher, case by case: what
 * the conformance launcher prints and what the suite's self-test checks. Only test methods are
 * recorded (containers that fail are recorded under their display name).
 *
 * @param suite the suite class run
 * @param cases one entry per case, in the order they finished
 */
public record SuiteRun(Class<?> suite, List<CaseResult> cases) {

  /** How a case ended; SKIPPED: the promise was not checked (printed as {@code UNVERIFIED}). */
  public enum Outcome {
    PASSED,
    FAILED,
    SKIPPED
  }

  /**
   * One case: the property (method) name, how it ended, for a failure or skip the first line of the
   * message (the skip reason, or the assertion), and for a failure the {@link ReplayHint} that
   * replays it (null when none was attached).
   */
  public record CaseResult(String property, Outcome outcome, String message, ReplayHint replay) {
    public CaseResult(String property, Outcome outcome, String message) {
      this(property, outcome, message, null);
    }
  }

  /**
   * Runs {@code suite} with the given JUnit configuration parameters (system properties apply too,
   * e.g. {@code jqwik.tries.default}). Prints nothing: jqwik's reports are sent to the Platform as
   * reporting entries ({@code jqwik.reporting.usejunitplatform}), which are dropped.
   */
  public static SuiteRun run(Class<?> suite, Map<String, String> configuration) {
    return run(suite, selectClass(suite), Optional.empty(), configuration);
  }

  /**
   * Runs the cases of {@code suite} that {@code only} selects ({@link SelectedCasesFilter}), as
   * {@link #run(Class, Map)} does the whole suite.
   *
   * @throws IllegalArgumentException if {@code only} selects no case of {@code suite}
   */
  public static SuiteRun run(
      Class<?> suite, CaseSelection only, Map<String, String> configuration) {
    return run(suite, selectClass(suite), Optional.of(only), configuration);
  }

  /**
   * Runs only the case {@code property} of {@code suite} (a method, declared or inherited from a
   * class or an interface), as {@link #run} does the whole suite: what the self-test needs to see a
   * mutant rejected by the property written for it, without paying for every other case.
   *
   * @throws IllegalArgumentException if {@code suite} has no public method of that name
   */
  public static SuiteRun runOnly(
      Class<?> suite, String property, Map<String, String> configuration) {
    Method method = null;
    for (Class<?> c = suite; c != null && method == null; c = c.getSuperclass()) {
      method =
          Arrays.stream(c.getDeclaredMethods())
              .filter(m -> m.getName().equals(property))
              .findFirst()
              .orElse(null);
    }
    if (method
        == null) { // a case declared as a default method of a topic interface (the engine layer's)
      method =
          Arrays.stream(suite.getMethods())
              .filter(m -> m.getName().equals(property))
              .findFirst()
              .orElse(null);
    }
    if (method == null) {
      throw new IllegalArgumentException(suite.getName() + " has no case named " + property);
    }
    return run(suite, selectMethod(suite, method), Optional.empty(), configuration);
  }

  private static SuiteRun run(
      Class<?> suite,
      DiscoverySelector selector,
      Optional<CaseSelection> only,
      Map<String, String> configuration) {
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selector)
            .filters(new SelectedCasesFilter(only))
            .configurationParameter("jqwik.reporting.usejunitplatform", "true")
            .configurationParameters(configuration)
            .build();
    List<CaseResult> cases = Collections.synchronizedList(new ArrayList<>());
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionSkipped(TestIdentifier id, String reason) {
            cases.add(new CaseResult(nameOf(id), Outcome.SKIPPED, firstLine(reason)));
          }

          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            boolean isCase = id.isTest();
            if (!isCase && result.getStatus() != TestExecutionResult.Status.FAILED) {
              return;
            }
            String message = result.getThrowable().map(SuiteRun::describe).orElse("");
            Outcome outcome =
                switch (result.getStatus()) {
                  case SUCCESSFUL -> Outcome.PASSED;
                  case ABORTED -> Outcome.SKIPPED;
                  case FAILED -> Outcome.FAILED;
                };
            cases.add(
                new CaseResult(
                    nameOf(id),
                    outcome,
                    message,
                    result.getThrowable().map(SuiteRun::replayOf).orElse(null)));
          }
        };
    // Neither a listener found by service file (UnverifiedPromiseReport: this run's outcome is
    // returned,
    // and whoever runs it prints what it needs) nor a filter (-Dankusa.conformance.only of an
    // enclosing
    // run does not reach into this one): only the filter given here.
    Launcher launcher =
        LauncherFactory.create(
            LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false)
                .build());
    launcher.execute(request, listener);
    return new SuiteRun(suite, List.copyOf(cases));
  }

  /** Names of the cases that ended with {@code outcome}. */
  public List<String> named(Outcome outcome) {
    return cases.stream().filter(c -> c.outcome() == outcome).map(CaseResult::property).toList();
  }

  public long count(Outcome outcome) {
    return cases.stream().filter(c -> c.outcome() == outcome).count();
  }

  private static String nameOf(TestIdentifier id) {
    return id.getSource()
        .filter(MethodSource.class::isInstance)
        .map(s -> ((MethodSource) s).getMethodName())
        .orElse(id.getDisplayName());
  }

  private static ReplayHint replayOf(Throwable t) {
    return Arrays.stream(t.getSuppressed())
        .filter(ReplayHint.class::isInstance)
        .map(ReplayHint.class::cast)
        .findFirst()
        .orElse(null);
  }

  /** An assertion's (or skip's) first line; for anything else, its class too. */
  private static String describe(Throwable t) {
    String message = firstLine(t.getMessage());
    if (t instanceof AssertionError || t instanceof org.opentest4j.TestAbortedException) {
      return message;
    }
    return t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  private static String firstLine(String s) {
    return UnverifiedPromiseReport.firstLine(s);
  }
}
