/**
 * The Tinker SDK 0.25 protobuf profile: reads {@code forward_backward} request bodies into the training primitives and
 * writes {@code forward_backward} and {@code asample} results for {@code retrieve_future}, little-endian raw arrays as
 * the SDK's {@code proto/request_conv.py} and {@code proto/response_conv.py} expect.
 */
package dev.crucible.adapters.http.tinker.proto;
