/** This process among the others on one database: its role, its heartbeat, and recovery of what dead ones held. */
package dev.crucible.application.process;
