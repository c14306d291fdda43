/**
 * The decoded-frame cache a node's processes share ({@link org.robostream.framecache.FrameCache},
 * {@link org.robostream.framecache.FrameCacheOptions}): pictures as decoded, in files of a folder
 * this user owns and others cannot write (checked by {@link
 * org.robostream.framecache.CacheFolder}), each entry checksummed, the folder's size bounded, files
 * opened without following links. Epochs after the first read frames instead of decoding them.
 * Thread- and process-safe; design and trust rules: docs/HUB-AND-CACHE.md, "Decoded-frame cache".
 */
package org.robostream.framecache;
