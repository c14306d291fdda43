/**
 * What a policy needs to know about a dataset, shared by the trainers ({@code robostream-torch},
 * {@code robostream-djl}): {@link org.robostream.policy.PolicyConfig} (cameras, state and action
 * widths), {@link org.robostream.policy.FeatureStats} (normalisation statistics from {@code
 * meta/stats.json}) and {@link org.robostream.policy.CameraInput}. Immutable values.
 */
package org.robostream.policy;
