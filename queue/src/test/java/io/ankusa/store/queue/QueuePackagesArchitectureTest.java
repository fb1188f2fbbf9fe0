package io.ankusa.store.queue;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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
 * packages'). Its internals ({@code io.ankusa.store.queue.internal}): {@code record}, {@code
 * counter} and {@code tenant} at the bottom, then {@code migration}, the queue core ({@code
 * internal}: {@code DeliveryQueue}, {@code Transition}, {@code Deliveries}), then {@code index},
 * {@code dispatch}, {@code maintenance}, {@code archive}, {@code ingest}, {@code runtime} and
 * {@code metrics}; a cycle between two of them (the queue's format stamp calling the migration that
 * reads the stamp, for one) fails the first rule. Above them the front door ({@code
 * io.ankusa.store.queue}), whose data and handler types (requests, results, deliveries, handlers)
 * the internals use, but never its classes that run the queue (the second rule): the front door is
 * built on the internals, not the other way round. Production classes only.
 */
@AnalyzeClasses(
    packages = "io.ankusa.store.queue",
    importOptions = ImportOption.DoNotIncludeTests.class)
class QueuePackagesArchitectureTest {
  private static final String INTERNAL = "io.ankusa.store.queue.internal";

  /** One slice per package directly under the internals, and one for the internals' own package. */
  private static final SliceAssignment INTERNAL_PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String pkg = javaClass.getPackageName();
          if (pkg.equals(INTERNAL)) {
            return SliceIdentifier.of("internal");
          }
          if (pkg.startsWith(INTERNAL + ".")) {
            return SliceIdentifier.of(pkg.substring(INTERNAL.length() + 1).split("\\.")[0]);
          }
          return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the queue's internal packages";
        }
      };

  @ArchTest
  static final ArchRule internalPackagesAreFreeOfCycles =
      slices()
          .assignedFrom(INTERNAL_PACKAGES)
          .should()
          .beFreeOfCycles()
          .because(
              "each package of the queue builds on the ones below it; a cycle makes them one package again");

  @ArchTest
  static final ArchRule internalsNeverUseTheFrontDoorsRunningClasses =
      noClasses()
          .that()
          .resideInAPackage(INTERNAL + "..")
          .should()
          .dependOnClassesThat()
          .haveFullyQualifiedName("io.ankusa.store.queue.WebhookQueue")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("io.ankusa.store.queue.QueueOptions")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("io.ankusa.store.queue.DeadLetterQueue")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("io.ankusa.store.queue.TenantAdmin")
          .because(
              "the front door is built on the internals; they use only its data and handler types");
}
