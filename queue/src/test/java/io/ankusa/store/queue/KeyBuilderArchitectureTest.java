package io.ankusa.store.queue;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Deliveries;

/**
 * Only the {@link Deliveries} op builders build {@code 'D' 'F' 'X' 'A'} keys (docs/storage.md, 'Who
 * writes what'): they put a due row with its active marker and every row change with its counter
 * deltas in one batch, so a caller elsewhere could write a due row without its marker or a row
 * without its counts.
 *
 * <p>Allowed callers: {@link Deliveries} (and its nested classes), and the 2 → 3 migration, which
 * will live in {@code io.ankusa.store.queue.internal.migration} and re-keys rows of format 2.
 * Readers of these families use ranges ({@code Keys.dueOf}, {@code Keys.activeUpTo}, …) and
 * decoders, which the rule does not restrict. Production classes of every module on this test's
 * classpath ({@code io.ankusa.store..}: queue, spi, the memory backend) are checked; tests are not.
 *
 * <p>The rule also fails if none of the four builders is found (ArchUnit's empty-should check), so
 * renaming them in {@link Keys} cannot make it pass vacuously.
 */
@AnalyzeClasses(packages = "io.ankusa.store", importOptions = ImportOption.DoNotIncludeTests.class)
class KeyBuilderArchitectureTest {

  @ArchTest
  static final ArchRule tenantIndexKeysAreBuiltOnlyByTheDeliveriesOpBuilders =
      methods()
          .that()
          .areDeclaredIn(Keys.class)
          .and()
          .haveNameMatching("due|inflight|deadByTenant|active")
          .should()
          .onlyBeCalled()
          .byClassesThat(
              belongToAnyOf(Deliveries.class)
                  .or(resideInAPackage("io.ankusa.store.queue.internal.migration..")))
          .because(
              "Deliveries puts each due row with its active marker and every row change with its counter"
                  + " deltas in one batch; read these families through Keys' range builders instead");
}
