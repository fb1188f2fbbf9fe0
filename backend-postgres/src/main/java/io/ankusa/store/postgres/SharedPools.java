package io.ankusa.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The connection pools of this JVM, one per server, role, password and pool size: stores on the
 * same server share a pool (their tables are schema-qualified, so a connection serves any of them),
 * which makes opening a store cheap — no new connection, no new pool thread. A pool no store uses
 * stays open for {@value #LINGER_MILLIS} ms (a store closed and opened again finds it), then closes
 * at the next acquire or release. Its threads are daemons and it holds one idle connection
 * meanwhile.
 */
final class SharedPools {
  /** What makes two pools interchangeable. The password is part of the key, never printed. */
  private record Key(String url, String user, String password, int size) {
    @Override
    public String toString() {
      return StoreTarget.withoutSecrets(url) + " as " + user + " (" + size + " connections)";
    }
  }

  private static final class Shared {
    final HikariDataSource pool;
    int users;
    long idleSince;

    Shared(HikariDataSource pool) {
      this.pool = pool;
    }
  }

  static final long LINGER_MILLIS = 30_000;
  private static final Map<Key, Shared> POOLS = new HashMap<>();

  private SharedPools() {}

  /** A pool for {@code url} as {@code user}, shared; give it back with {@link #release}. */
  static synchronized HikariDataSource acquire(String url, String user, String password, int size) {
    closeLingering();
    Key key = new Key(url, user, password, size);
    Shared shared = POOLS.get(key);
    if (shared == null || shared.pool.isClosed()) {
      shared = new Shared(create(key));
      POOLS.put(key, shared);
    }
    shared.users++;
    return shared.pool;
  }

  /** Gives {@code pool} back; a pool no store uses any more lingers (see the class javadoc). */
  static synchronized void release(HikariDataSource pool) {
    for (Shared shared : POOLS.values()) {
      if (shared.pool == pool) {
        if (--shared.users == 0) {
          shared.idleSince = System.nanoTime();
        }
        closeLingering();
        return;
      }
    }
    pool.close();
  }

  private static void closeLingering() {
    long now = System.nanoTime();
    POOLS
        .values()
        .removeIf(
            shared -> {
              boolean stale =
                  shared.users == 0 && now - shared.idleSince > LINGER_MILLIS * 1_000_000;
              if (stale) {
                shared.pool.close();
              }
              return stale;
            });
  }

  private static HikariDataSource create(Key key) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(key.url());
    config.setUsername(key.user());
    if (key.password() != null) {
      config.setPassword(key.password());
    }
    config.setMaximumPoolSize(key.size());
    config.setMinimumIdle(1);
    config.setConnectionTimeout(10_000);
    config.setPoolName("ankusa-postgres-" + Objects.hash(key.url(), key.user(), key.size()));
    config.setAutoCommit(true);
    return new HikariDataSource(config);
  }
}
