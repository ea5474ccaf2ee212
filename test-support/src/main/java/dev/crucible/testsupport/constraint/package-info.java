/** Languages and schemas that constrained-decoding tests share: a grammar with its own recogniser, hostile schemas. */
package dev.crucible.testsupport.constraint;
