/** Which routes a process answers, by its role ({@code crucible serve --role}). */
package dev.crucible.adapters.http.role;
