/**
 * Fetching a sample's frames: which file, position and decoder (or frame-cache slot) each
 * episode-local frame of a camera comes from, and delivering the pictures to the worker's {@link
 * org.robostream.frames.PictureHolder}. {@link org.robostream.fetch.FrameFetcher} is the entry: it
 * places frames by position or by pts ({@link org.robostream.fetch.FramePlacement}, the rule of
 * docs/DATASETS.md "Which frame a row gets"), checks each decoded frame's pts, goes through the
 * frame cache where there is one ({@link org.robostream.fetch.CachedFetch}) and reads image-feature
 * cameras from the data Parquet ({@link org.robostream.fetch.ImageFrames}). Below the loader
 * ({@code stream}: sample order, epochs, the facade) and above the frame devices ({@code frames}).
 * Failures come out as {@link org.robostream.fetch.FetchException}, which the loader's worker turns
 * into the public {@code stream.SampleException}. Internal (not exported); one fetcher per worker
 * thread.
 */
package org.robostream.fetch;
