/** The blob store on S3 or an S3-compatible server, through the AWS SDK for Java v2. */
package dev.crucible.adapters.s3;
