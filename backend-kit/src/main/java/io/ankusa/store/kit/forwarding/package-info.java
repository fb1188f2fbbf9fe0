/**
 * Stores that wrap another: {@link io.ankusa.store.kit.forwarding.ForwardingStore} hands every call
 * to its delegate (extend it to change one call: fault injection, timing, recording), and {@link
 * io.ankusa.store.kit.forwarding.ReadOnlyStore} refuses the write calls of a store opened
 * read-only.
 */
package io.ankusa.store.kit.forwarding;
