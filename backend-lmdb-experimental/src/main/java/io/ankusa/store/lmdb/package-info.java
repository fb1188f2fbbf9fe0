/** The experimental LMDB backend. */
package io.ankusa.store.lmdb;
