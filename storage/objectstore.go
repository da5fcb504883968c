package storage

// Table files may live in S3 or an S3-compatible store (MinIO, Ceph, R2):
// registering iceberg-go's S3 file I/O makes s3://, s3a:// and s3n://
// locations readable and writable. It takes the catalog properties
// s3.endpoint, s3.region, s3.access-key-id, s3.secret-access-key and
// s3.session-token, or credentials vended by a REST catalog; without keys
// it uses the AWS SDK's default chain (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY, a profile, or an instance role). With an endpoint
// set, requests use path-style addressing. Local paths and file:// stay the
// default and need nothing from here.
import _ "github.com/apache/iceberg-go/io/gocloud/s3"
