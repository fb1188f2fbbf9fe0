package io.ankusa.store.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The demo runs the queue the way a service embeds it: through {@code WebhookQueue} and the rest of
 * the queue's API, never its internals (the offline commands, such as the verify the demo ends
 * with, are the CLI's own tools and may).
 */
@AnalyzeClasses(
    packages = "io.ankusa.store.cli",
    importOptions = ImportOption.DoNotIncludeTests.class)
class DemoUsesTheFrontDoorTest {
  @ArchTest
  static final ArchRule theDemoUsesOnlyTheQueuesApi =
      noClasses()
          .that()
          .haveSimpleNameStartingWith("Demo")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.ankusa.store.queue.internal..")
          .orShould()
          .dependOnClassesThat()
          .resideInAPackage("io.ankusa.store.layout..")
          .because("the demo shows what a service embedding the queue writes");
}
