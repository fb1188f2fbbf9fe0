package io.ankusa.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** The SQLSTATE mapping of {@link PostgresFailures}, state by state. */
class PostgresFailuresTest {
  @Test
  void diskFullIsStoreFull() {
    assertThat(
            PostgresFailures.write(
                new SQLException("could not extend file", "53100"), "a write", "srv"))
        .isInstanceOf(StoreFullException.class)
        .hasMessageContaining("not applied")
        .hasMessageContaining("srv");
  }

  @Test
  void lostConnectionsAreWriteFailuresThatSaySo() {
    for (SQLException e :
        new SQLException[] {
          new SQLException("io", "08006"),
          new SQLException("gone", "57P01"),
          new SQLTransientConnectionException("pool timed out")
        }) {
      assertThat(PostgresFailures.connectionLost(e)).as(e.toString()).isTrue();
      assertThat(PostgresFailures.write(e, "a write", "srv"))
          .as(e.toString())
          .isInstanceOf(StoreWriteFailedException.class)
          .hasMessageContaining("was lost")
          .hasMessageContaining("reportWriteFailure");
    }
  }

  @Test
  void serializationFailuresAndDeadlocksAreRetriedNothingElse() {
    assertThat(PostgresFailures.retryable(new SQLException("s", "40001"))).isTrue();
    assertThat(PostgresFailures.retryable(new SQLException("d", "40P01"))).isTrue();
    assertThat(PostgresFailures.retryable(new SQLException("u", "23505"))).isFalse();
    assertThat(PostgresFailures.retryable(new SQLException("io", "08006"))).isFalse();
  }
}
