/**
 * The key layout of store format 3 (docs/storage.md): every key and value the queue writes, built
 * and decoded here and nowhere else.
 *
 * <h2>The table</h2>
 *
 * <table>
 *   <caption>Format 3</caption>
 *   <tr><th>key family</th><th>column family</th><th>key</th><th>value</th></tr>
 *   <tr><td>hook envelope</td><td>hooks</td><td>{@code seq:64}</td><td>envelope (queue)</td></tr>
 *   <tr><td>delivery row</td><td>deliveries</td><td>{@code seq:64 sink:16}</td><td>row (queue)</td></tr>
 *   <tr><td>tenant by ordinal</td><td>tenants</td><td>{@code 't' ord:32}</td><td>{@link io.ankusa.store.layout.TenantByOrdValue tenant id, empty = erased}</td></tr>
 *   <tr><td>ordinal by tenant</td><td>tenants</td><td>{@code 'n' tenant_id}</td><td>{@link io.ankusa.store.layout.OrdinalValue ord:32}</td></tr>
 *   <tr><td>next ordinal</td><td>default</td><td>{@code m:next_ord}</td><td>{@link io.ankusa.store.layout.NextOrdinalValue next:32}</td></tr>
 *   <tr><td>format stamp</td><td>default</td><td>{@code m:format}</td><td>{@link io.ankusa.store.layout.FormatStampValue format:32}</td></tr>
 *   <tr><td>migration in progress</td><td>default</td><td>{@code m:migrating:3}</td><td>cursor (queue)</td></tr>
 *   <tr><td>due</td><td>index</td><td>{@code 'D' ord:32 at:64 seq:64 sink:16}</td><td>{@link io.ankusa.store.layout.DueValue size:32 kind:8}</td></tr>
 *   <tr><td>inflight</td><td>index</td><td>{@code 'F' ord:32 seq:64 sink:16}</td><td>{@link io.ankusa.store.layout.InflightValue size:32}</td></tr>
 *   <tr><td>dead, time order</td><td>index</td><td>{@code 'x' at:64 seq:64 sink:16}</td><td>{@link io.ankusa.store.layout.DeadValue ord:32 source_id hook_id}</td></tr>
 *   <tr><td>dead, by tenant</td><td>index</td><td>{@code 'X' ord:32 at:64 seq:64 sink:16}</td><td>empty</td></tr>
 *   <tr><td>archive obligation</td><td>index</td><td>{@code 'a' seq:64}</td><td>{@link io.ankusa.store.layout.ArchiveValue size:32 ord:32}</td></tr>
 *   <tr><td>active tenants</td><td>index</td><td>{@code 'A' bucket:64 ord:32}, bucket = at / 1000</td><td>empty</td></tr>
 *   <tr><td>cleared hook</td><td>index</td><td>{@code 'c' seq:64}</td><td>empty</td></tr>
 *   <tr><td>dedupe</td><td>index</td><td>{@code 'u' tenant_id 0x00 key}</td><td>{@link io.ankusa.store.layout.DedupeValue seq:64}</td></tr>
 *   <tr><td>dedupe expiry</td><td>index</td><td>{@code 'e' at:64 tenant_id 0x00 key}</td><td>empty</td></tr>
 *   <tr><td>counters</td><td>counters</td><td>{@code ord:32 field:8}</td><td>{@link io.ankusa.store.spi.Int64Add int64, merged}</td></tr>
 *   <tr><td>audit</td><td>audit</td><td>{@code 'a' seq:64 at:64}</td><td>audit row (queue)</td></tr>
 * </table>
 *
 * <p>{@link io.ankusa.store.layout.Format3} lists the column families; {@link
 * io.ankusa.store.layout.KeyFamily} the key families; {@link io.ankusa.store.layout.Keys} builds
 * every key and scan range; each key has a record with a {@code decode} ({@link
 * io.ankusa.store.layout.DueKey}, …) and each value a record with {@code encode}/{@code decode}.
 * Anything that is not a key this code can have written decodes to {@link
 * io.ankusa.store.spi.StoreCorruptionException} naming the key family, the key in hex and the
 * expected shape; a builder given a field out of range throws {@link
 * io.ankusa.store.spi.StoreArgumentException} naming the field and its range ({@link
 * io.ankusa.store.layout.Fields}).
 *
 * <h2>Why byte order is numeric order</h2>
 *
 * <p>Engines compare keys as unsigned bytes. Every integer is unsigned, big-endian and fixed width,
 * so comparing two keys of one family byte by byte compares their fields numerically, left to
 * right. That is what makes "the due rows of tenant 7 up to now" one contiguous range ({@link
 * io.ankusa.store.layout.Keys#dueOfUpTo}), "the oldest active second" the first {@code 'A'} key,
 * and the dead index newest-first a reverse scan. A little-endian or variable-length field would
 * scatter both (property {@code byteOrderIsNumericOrder}).
 *
 * <h2>Sentinels</h2>
 *
 * <p>Each key family has a lo and a hi sentinel key, written when the family is created; every real
 * key sorts strictly between them ({@link io.ankusa.store.layout.Keys#family}). A fold scans from
 * lo to just past hi and must see both, so a scan cut short (corruption reported as a clean end,
 * the bug of the old Elixir binding) is detected instead of silently losing rows.
 *
 * <h2>Ordinals</h2>
 *
 * <p>A tenant ({@link io.ankusa.store.layout.TenantId}: 1..255 bytes of UTF-8 without NUL, {@code
 * "default"} when a hook names none) is keyed by a dense u32 ordinal, assigned at first sight and
 * never reused: 1..4 294 967 294. Ordinal 0 is the node aggregate: it owns no rows, only the six
 * counters that sum every tenant's ({@link io.ankusa.store.layout.CounterField}). 0xFFFFFFFF is
 * never an ordinal, so {@code prefix FF FF FF FF} can be the hi sentinel of the ord-led families.
 *
 * <h2>Who builds what</h2>
 *
 * <p>Only the queue's {@code Deliveries} op builders call {@link io.ankusa.store.layout.Keys#due},
 * {@link io.ankusa.store.layout.Keys#inflight}, {@link io.ankusa.store.layout.Keys#deadByTenant}
 * and {@link io.ankusa.store.layout.Keys#active} (an ArchUnit rule in the queue says so): they put
 * each due row with its active marker and every index change with its counter deltas, in one batch.
 * Which rows go into which batch is the queue's business; this package only says what the bytes
 * are.
 *
 * <p>Format-2 keys ({@code 'd'}, {@code 'f'}, the old {@code 'x'} and {@code 'a'} values) are not
 * here: they live with the 2 → 3 migration.
 */
package io.ankusa.store.layout;
