/*
Copyright 2023 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package validating

import (
	celgo "github.com/google/cel-go/cel"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
)

var _ cel.ExpressionAccessor = (*MessageExpressionCondition)(nil)

type MessageExpressionCondition struct {
	MessageExpression string
}

func (m *MessageExpressionCondition) GetExpression() string {
	return m.MessageExpression
}

func (m *MessageExpressionCondition) ReturnTypes() []*celgo.Type {
	return []*celgo.Type{celgo.StringType}
}
