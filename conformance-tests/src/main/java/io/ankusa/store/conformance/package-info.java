/** The conformance suite every ankusa-store backend runs. */
package io.ankusa.store.conformance;
