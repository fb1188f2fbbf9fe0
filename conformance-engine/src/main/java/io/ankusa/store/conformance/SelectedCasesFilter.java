package io.ankusa.store.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * Keeps only the cases a {@link CaseSelection} names, in any JUnit Platform run: registered through
 * {@code META-INF/services}, so surefire applies it with the selection of {@code
 * -Dankusa.conformance.only} (a no-op when that is not set), and the launcher adds it for {@code
 * --only}. Unlike {@code -Dtest=Class#method} it finds inherited cases. While a selection is set,
 * tests outside the suite are left out too. A selection that names no case of the conformance
 * classes of a run fails the run's discovery, naming the classes it looked at, rather than passing
 * with no test run.
 */
public final class SelectedCasesFilter implements PostDiscoveryFilter {
  private final Optional<CaseSelection> selection;

  /** The engine roots already checked for a selection that selects nothing. */
  private final Set<TestDescriptor> checkedRoots =
      Collections.newSetFromMap(new IdentityHashMap<>());

  /** The filter of {@code -Dankusa.conformance.only}; what the Platform instantiates. */
  public SelectedCasesFilter() {
    this(CaseSelection.fromSystemProperty());
  }

  /** A filter keeping what {@code selection} names; with none, everything. */
  public SelectedCasesFilter(Optional<CaseSelection> selection) {
    this.selection = selection;
  }

  @Override
  public FilterResult apply(TestDescriptor descriptor) {
    if (selection.isEmpty()) {
      return FilterResult.included("no selection of cases");
    }
    CaseSelection only = selection.get();
    checkSelectsSomething(root(descriptor), only);
    if (descriptor.isRoot()) {
      return FilterResult.included("engine");
    }
    boolean selected =
        isSelected(descriptor, only)
            || descriptor.getDescendants().stream().anyMatch(d -> isSelected(d, only));
    return FilterResult.includedIf(
        selected, () -> "selected by " + only, () -> "not selected by " + only);
  }

  private static boolean isSelected(TestDescriptor descriptor, CaseSelection only) {
    return descriptor.isTest()
        && caseOf(descriptor)
            .map(m -> only.matches(testClassOf(descriptor), m.getMethodName()))
            .orElse(false);
  }

  /**
   * The test class a case runs in: the class of its nearest container (the method's source names
   * the class that declares it, a layer or an interface of cases, for an inherited case).
   */
  private static Class<?> testClassOf(TestDescriptor descriptor) {
    for (Optional<TestDescriptor> d = descriptor.getParent();
        d.isPresent();
        d = d.get().getParent()) {
      Optional<ClassSource> source =
          d.get().getSource().filter(ClassSource.class::isInstance).map(ClassSource.class::cast);
      if (source.isPresent()) {
        return source.get().getJavaClass();
      }
    }
    return caseOf(descriptor).orElseThrow().getJavaClass();
  }

  private synchronized void checkSelectsSomething(TestDescriptor root, CaseSelection only) {
    if (!checkedRoots.add(root)) {
      return;
    }
    Set<String> suites = new TreeSet<>();
    boolean any = false;
    List<TestDescriptor> all = new ArrayList<>(root.getDescendants());
    for (TestDescriptor d : all) {
      Optional<MethodSource> source = caseOf(d);
      if (d.isTest()
          && source.isPresent()
          && ConformanceSuite.class.isAssignableFrom(testClassOf(d))) {
        suites.add(testClassOf(d).getName());
        any |= only.matches(testClassOf(d), source.get().getMethodName());
      }
    }
    if (!suites.isEmpty() && !any) {
      throw new IllegalArgumentException(
          CaseSelection.PROPERTY
              + "="
              + only
              + " selects no case of the"
              + " conformance classes of this run "
              + suites
              + "; name a case as method, Type#method or Type"
              + " (docs/testing.md, \"Replay\")");
    }
  }

  private static Optional<MethodSource> caseOf(TestDescriptor descriptor) {
    return descriptor
        .getSource()
        .filter(MethodSource.class::isInstance)
        .map(MethodSource.class::cast);
  }

  private static TestDescriptor root(TestDescriptor descriptor) {
    TestDescriptor d = descriptor;
    while (d.getParent().isPresent()) {
      d = d.getParent().get();
    }
    return d;
  }
}
