/**
 * robostream as the data layer of a DJL (Deep Java Library) training run: {@link
 * org.robostream.djl.StreamingDjlDataset}, a DJL {@code Dataset} over a {@code StreamingDataset}
 * whose batches are named {@code NDList}s viewing the batch's memory. This module, not the core
 * library, depends on DJL and its PyTorch engine.
 */
package org.robostream.djl;
