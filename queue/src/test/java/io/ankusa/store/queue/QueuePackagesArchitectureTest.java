package io.ankusa.store.queue;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The queue's packages depend on each other one way only (docs/architecture.md, 'The queue's
 * packages'): {@code record}, {@code config}, {@code counter} and {@code tenant} at the bottom, then
 * {@code migration}, the queue itself ({@code io.ankusa.store.queue}: {@code DeliveryQueue},
 * {@code Transition}, {@code Deliveries}), then {@code index}, {@code dispatch}, {@code maintenance},
 * {@code archive}, {@code ingest}, {@code runtime} and {@code metrics}. A cycle between two packages
 * (the queue's format stamp calling the migration that reads the stamp, for one) fails this rule.
 * Production classes only.
 */
@AnalyzeClasses(packages = "io.ankusa.store.queue", importOptions = ImportOption.DoNotIncludeTests.class)
class QueuePackagesArchitectureTest {
  private static final String ROOT = "io.ankusa.store.queue";

  /** One slice per package directly under the queue, and one for the queue's own package. */
  private static final SliceAssignment QUEUE_PACKAGES = new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String pkg = javaClass.getPackageName();
      if (pkg.equals(ROOT)) {
        return SliceIdentifier.of("queue");
      }
      if (pkg.startsWith(ROOT + ".")) {
        return SliceIdentifier.of(pkg.substring(ROOT.length() + 1).split("\\.")[0]);
      }
      return SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "the queue's packages";
    }
  };

  @ArchTest
  static final ArchRule queuePackagesAreFreeOfCycles = slices().assignedFrom(QUEUE_PACKAGES)
      .should().beFreeOfCycles()
      .because("each package of the queue builds on the ones below it; a cycle makes them one package again");
}
