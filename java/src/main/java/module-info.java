/**
 * robostream: streams LeRobot datasets (Parquet + MP4) into Java trainers through a C++ decode
 * core. Exported: the API packages (the streaming loader, batches and tensors, the decoder facade
 * and its vocabulary, datasets and their sources, the Hub, the exception types). Not exported:
 * {@code codec}, the decode machinery behind {@code decode.VideoDecoder}; {@code nativecore}, the
 * JavaCPP binding of the native core and its owning wrappers, status codes, CUDA probe and test
 * hooks (leak counters, fault injection), which only this module's code may call; and the loader's
 * internals {@code fetch} (finding a sample's frames) and {@code frames} (the frame devices), whose
 * public classes serve {@code stream} only.
 */
module org.robostream {
  exports org.robostream;
  exports org.robostream.arrow;
  exports org.robostream.dataset;
  exports org.robostream.framecache;
  exports org.robostream.policy;
  exports org.robostream.source;
  exports org.robostream.hub;
  exports org.robostream.stream;
  exports org.robostream.transform;
  exports org.robostream.decode;
  exports org.robostream.video;

  // Types of these modules appear in the exported API (javac -Xlint:exports lists them: Arrow
  // vectors, allocators and C Data structs, Jackson's JsonNode of the dataset statistics), so a
  // consumer reads them too. FFmpeg's types stay inside the unexported codec package.
  requires transitive org.apache.arrow.memory.core;
  requires transitive org.apache.arrow.vector;
  requires transitive org.apache.arrow.c;
  requires transitive com.fasterxml.jackson.databind;
  requires org.bytedeco.ffmpeg;
  requires org.bytedeco.javacpp;
  requires org.apache.arrow.dataset;
  requires org.slf4j;
  requires java.net.http;
  // Resolved for what they carry, not for types: the native libraries of JavaCPP and FFmpeg for
  // linux-x86_64 (this artifact's platform; its own core is built for it) and Arrow's memory
  // allocator, which arrow-memory-core loads by name.
  requires org.bytedeco.javacpp.linux.x86_64;
  requires org.bytedeco.ffmpeg.linux.x86_64;
  requires org.apache.arrow.memory.unsafe;

  // Hub locations reach DatasetSource.open without dataset depending on hub.
  uses org.robostream.dataset.DatasetSourceProvider;

  provides org.robostream.dataset.DatasetSourceProvider with
      org.robostream.hub.HubDatasets;
}
