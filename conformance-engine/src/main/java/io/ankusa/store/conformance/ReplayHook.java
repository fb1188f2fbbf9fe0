package io.ankusa.store.conformance;

import java.util.Optional;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Runs every case of a conformance layer (a property or example of a {@link ConformanceSuite}; the
 * hook is registered with jqwik through {@code META-INF/services} and leaves other properties
 * alone) so that it can be replayed from anywhere: it pins jqwik's seed to {@code ankusa.seed} when
 * that is set ({@link Seeds#pinned()}), and adds to a failure a {@link ReplayHint} naming the case
 * and the seed that replay it — the seed the case took from {@link Seeds#seed()} if it took one
 * (the kill tests), else jqwik's. Surefire prints the hint under the failure's stack trace; the
 * launcher prints it as a command.
 */
public final class ReplayHook implements AroundPropertyHook {

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    if (!ConformanceSuite.class.isAssignableFrom(context.containerClass())) {
      return property.execute();
    }
    Seeds.pinned().ifPresent(seed -> context.attributes().setSeed(Long.toString(seed)));
    String caseName =
        CaseSelection.name(context.containerClass(), context.targetMethod().getName());
    Seeds.caseStarted(caseName);
    PropertyExecutionResult result;
    Long used;
    try {
      result = property.execute();
    } finally {
      used = Seeds.caseFinished();
    }
    if (result.status() != PropertyExecutionResult.Status.FAILED || result.throwable().isEmpty()) {
      return result;
    }
    Optional<String> seed = used != null ? Optional.of(Long.toString(used)) : result.seed();
    Throwable failure = result.throwable().get();
    failure.addSuppressed(new ReplayHint(caseName, seed.orElse(null)));
    return result.mapToFailed(failure);
  }

  /** Registered globally, it reaches every property of every container. */
  @Override
  public PropagationMode propagateTo() {
    return PropagationMode.ALL_DESCENDANTS;
  }

  /** Outermost, so the pinned seed is in place before any other hook runs the property. */
  @Override
  public int aroundPropertyProximity() {
    return -100;
  }
}
