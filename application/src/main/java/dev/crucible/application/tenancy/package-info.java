/** Authentication by API key and key issuing. */
package dev.crucible.application.tenancy;
