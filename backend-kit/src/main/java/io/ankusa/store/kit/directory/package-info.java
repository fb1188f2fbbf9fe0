/**
 * Claiming a store directory, for a backend whose store lives in files (or, like postgres, keeps
 * its marker in one): {@link io.ankusa.store.kit.directory.DirectoryClaim} opens a store the way
 * every backend must, through {@link io.ankusa.store.kit.directory.DirectoryLock} (one open store
 * per directory, in this JVM and across processes) and {@link
 * io.ankusa.store.kit.directory.StoreMarker} (which backend, which format).
 */
package io.ankusa.store.kit.directory;
