/**
 * Hugging Face Hub datasets and buckets as dataset sources: {@link org.robostream.hub.HubDatasets}
 * (found by {@code ServiceLoader} for {@code hf://...} and {@code OWNER/NAME[@REV]}) opens a {@link
 * org.robostream.hub.HubDataset}: the revision resolved once to its commit, metadata and Parquet
 * mirrored in a bounded local cache, videos read by HTTP range requests through a block cache
 * shared by a worker's decoders, with retries, capped bodies and confined paths. Thread-safe where
 * shared (the caches); design: docs/HUB-AND-CACHE.md, "Hub and bucket sources".
 */
package org.robostream.hub;
