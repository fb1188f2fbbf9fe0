/**
 * The engine contract of ankusa-store: what a storage engine must do for the webhook queue, and
 * nothing more.
 *
 * <h2>Model</h2>
 *
 * <p>A {@link io.ankusa.store.spi.Store} is a set of named <em>families</em>, fixed when it is
 * opened ({@link io.ankusa.store.spi.FamilySpec}). A family is a map from byte-string keys to
 * byte-string values, ordered by unsigned byte comparison ({@link
 * io.ankusa.store.spi.Bytes#UNSIGNED}). A <em>counters</em> family holds 8-byte little-endian
 * signed integers and accepts one more operation, {@code merge(key, delta)}, whose law is in {@link
 * io.ankusa.store.spi.Int64Add}. Merges are <em>blind</em>: a writer never reads a counter to
 * change it, so any number of threads may add to the same counter without losing an operand. This
 * is what lets the queue keep per-tenant counts exact without a read-modify-write anywhere.
 *
 * <p>State changes only through {@link io.ankusa.store.spi.Batch}es: an ordered list of put,
 * delete, half-open deleteRange and merge ops ({@link io.ankusa.store.spi.Op}) applied atomically.
 * The queue relies on this to keep a row, its index keys, its activity marker and its counter
 * deltas together: a crash leaves all of them or none.
 *
 * <h2>Durability</h2>
 *
 * <p>A write is either {@link io.ankusa.store.spi.Durability#SYNC} (durable on return) or {@code
 * NO_SYNC} (visible at once, durable after the next returned {@link
 * io.ankusa.store.spi.Store#syncWal()}). Splitting visibility from durability is what lets the
 * queue's writer apply group N+1 while the disk syncs group N; the queue, not the engine, keeps
 * anything unsynced from being acknowledged or dispatched.
 *
 * <h2>Reads</h2>
 *
 * <p>Point reads, multi-gets and scans over {@code [lo, hi)}, forward or reverse, on the live store
 * or on a {@link io.ankusa.store.spi.Snapshot}. A scan sees one state and <strong>never ends early
 * because of corruption or an I/O error</strong>: it throws {@link
 * io.ankusa.store.spi.StoreCorruptionException}. (A binding that reported corruption as a clean end
 * of scan is the bug this contract was written to rule out: a short scan of the due index silently
 * loses deliveries.) {@link io.ankusa.store.spi.ReadView#visit} reads a range like a scan but hands
 * each entry to a callback, for hot callers that decode entries at once.
 *
 * <h2>Ownership of byte arrays</h2>
 *
 * <p>Arrays passed to reads are not retained. Arrays put into a {@code Batch} are referenced, not
 * copied: the caller must not change them until the write returns, and may reuse them once it has
 * (property {@code argumentArraysAreNeverRetained}). Arrays returned by reads are fresh copies
 * owned by the caller; the one exception is a visit, whose callback's arrays are the backend's and
 * valid only during the call ({@link io.ankusa.store.spi.EntryVisitor}).
 *
 * <h2>Errors</h2>
 *
 * <p>Everything thrown is an unchecked {@link io.ankusa.store.spi.StoreException}: {@code
 * StoreArgumentException} (the caller broke a {@code REQUIRES:}; nothing was written), {@code
 * StoreCorruptionException}, {@code StoreFormatException} (the directory holds something this code
 * will not open), {@code StoreWriteFailedException} (report it with {@link
 * io.ankusa.store.spi.Store#reportWriteFailure}), {@code StoreFullException} and {@code
 * StoreClosedException}. Messages name the family, the key in hex, and what to do.
 *
 * <h2>Checked by</h2>
 *
 * <p>Every promise above is a named property of the engine layer of the conformance suite ({@code
 * io.ankusa.store.conformance.EngineConformance}), run against every backend; the javadoc of each
 * method names its property. A backend states what it can do in {@link
 * io.ankusa.store.spi.Capabilities}; the suite skips, with the reason shown, only what a backend
 * does not claim.
 *
 * <h2>Writing a backend</h2>
 *
 * <p>Start from the skeleton {@code backend-template} ({@code io.ankusa.store.template}), whose
 * every method throws naming the step of docs/writing-a-backend.md that fills it: one {@link
 * io.ankusa.store.spi.StoreProvider} registered with {@link java.util.ServiceLoader}, one {@code
 * Store}, the backend kit's {@code io.ankusa.store.kit.FamilyCatalog} for argument checks (module
 * {@code backend-kit}: the pieces backends share, on this contract alone), then extend the suite's
 * abstract classes with a fixture for your backend. The memory backend ({@code backend-memory}) is
 * a small working store to read beside it.
 */
package io.ankusa.store.spi;
