/**
 * Flyway's Java migrations, in the package Flyway scans by default; the SQL migrations sit beside them under
 * {@code src/main/resources/db/migration}. A Java migration is used only where SQL cannot do the rewrite (V7 reads each
 * stored job's settings through the domain's rules).
 */
package db.migration;
