/** Weave's object routes ({@code /obj/create}, {@code /obj/read}), their wire views and request mapping. */
package dev.crucible.adapters.http.object;
