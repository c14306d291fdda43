/**
 * LeRobot datasets as people publish them (v3.0, v2.1, v2.0): {@link
 * org.robostream.dataset.LeRobotMetadata} (info.json, episodes, tasks, stats), {@link
 * org.robostream.dataset.DatasetSource} (where a dataset is: local, or a provider such as the Hub),
 * the checks of metadata against itself, its tables and its videos, the rule of which frame a row
 * gets ({@link org.robostream.dataset.TimestampRule}) and {@link
 * org.robostream.dataset.DatasetException}, which names the file and the fix. Immutable once read.
 * Rules: docs/DATASETS.md; design: docs/LOADER.md.
 */
package org.robostream.dataset;
