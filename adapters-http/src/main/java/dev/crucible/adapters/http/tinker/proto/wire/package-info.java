/**
 * The classes protoc generates at build time from {@code src/main/proto/tinker_public.proto} (outer class
 * {@code TinkerPublic}); not ours to edit or test, only {@link dev.crucible.adapters.http.tinker.proto.TinkerProto}
 * uses them.
 */
package dev.crucible.adapters.http.tinker.proto.wire;
