package io.ankusa.store.conformance;

/**
 * A place where a fixture can cut its backend's write-ahead log short ({@link
 * BackendFixture#logCuts}): the log file is truncated there, the rest of the store left as it is.
 *
 * @param file the log file, as the fixture names it
 * @param offset where in it the cut falls: the length the file is truncated to (a fixture whose log
 *     is not a file of bytes says what it counts)
 * @param what what lies at the offset ("the start of a record", "inside the record at 4096"), for
 *     messages
 * @param recordsFromEnd how many of the log's records, counted back from its end, lie at or after
 *     the cut — the records it removes or tears from its file and every record of the files after
 *     it: 1 for a cut at the start of the log's last record or inside it. A cut with {@code
 *     recordsFromEnd <= N} lies within the last N writes, which is what a crash mid-append leaves
 *     when they were never synced
 */
public record LogCut(String file, long offset, String what, int recordsFromEnd) {
  public LogCut {
    if (recordsFromEnd < 1) {
      throw new IllegalArgumentException(
          "a cut of "
              + file
              + " at "
              + offset
              + " must lie at or before the log's"
              + " last record");
    }
  }

  /** The file, the offset and what lies there, for messages. */
  public String where() {
    return file + " at " + offset + " (" + what + ")";
  }
}
