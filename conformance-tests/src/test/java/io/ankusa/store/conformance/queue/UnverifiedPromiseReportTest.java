package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.ankusa.store.conformance.UnverifiedPromiseReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The listener every JUnit Platform run of the suite gets by service file: a case not checked is
 * printed as {@code UNVERIFIED <promise>: <reason>} under its suite class (also when the case is
 * declared in a topic interface), a case that ran is not.
 */
class UnverifiedPromiseReportTest {

  @Test
  void aCaseNotCheckedIsPrintedUnderItsSuiteAndACheckedOneIsNot() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Launcher launcher =
        LauncherFactory.create(
            LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build());
    Class<?> suite = MutantSuites.UnclaimedDamageSuite.class;
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request()
            .selectors(
                selectMethod(suite.getName() + "#scanNeverEndsEarlyOnCorruption"),
                selectMethod(suite.getName() + "#emptyBatchIsANoOp"))
            .configurationParameter("jqwik.reporting.usejunitplatform", "true")
            .build(),
        new UnverifiedPromiseReport(out));
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("1 promise(s) not checked by " + suite.getName())
        .contains(
            "UNVERIFIED scanNeverEndsEarlyOnCorruption: damageable memory, no detection claimed does not claim"
                + " detectsDamage; after its fixture damaged the data files")
        .doesNotContain("emptyBatchIsANoOp");
  }
}
