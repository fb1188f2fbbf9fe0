/**
 * The backend kit: what backends share to implement the engine contract ({@code
 * io.ankusa.store.spi}) the same way, so that they refuse the same input with the same messages and
 * keep the same promises with the same code. Not part of the contract: a backend may use any of it
 * or none, and the contract knows nothing of it.
 *
 * <p>This package holds the pieces inside a store's calls: {@link
 * io.ankusa.store.kit.FamilyCatalog} (the families of an open store and the contract's argument
 * checks), {@link io.ankusa.store.kit.ChunkedScan} (a scan that reads its range in chunks and never
 * ends early on an error) and {@link io.ankusa.store.kit.HandleGate} (the guard of a native handle
 * that many threads read through and one closes). Claiming a store directory is in {@code
 * io.ankusa.store.kit.directory}, wrapping a store in {@code io.ankusa.store.kit.forwarding}.
 */
package io.ankusa.store.kit;
