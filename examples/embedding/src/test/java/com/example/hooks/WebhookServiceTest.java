package com.example.hooks;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the service as its main method would: it throws unless every hook reached the sink. */
class WebhookServiceTest {
  @Test
  void theServiceDeliversEveryHookRetriesTheBusyOnesAndRevivesTheDeadOnes(@TempDir Path dir) {
    assertDoesNotThrow(() -> WebhookService.main(new String[] {dir.resolve("store").toString()}));
  }
}
