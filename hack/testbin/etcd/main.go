// Command etcd is the etcd server, built from the module proxy so that the
// integration tests need no binary download.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
