// Accumulation microbenchmark behind pg_red_add4 (cuda/common.cuh): 947 M
// random adds of four floats into an 800x592 supersample-4 histogram, with
// scalar atomics, vector reductions (red.global.add.v4.f32, PTX 8.1) and
// 64-bit atomics, over 20 K .. 7.6 M occupied buckets. Not part of the build:
// on the GPU machine, `nvcc -O3 -arch=sm_90 -o atomics scripts/atomics-bench.cu && ./atomics`.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
__device__ __forceinline__ uint64_t mix(uint64_t z){z=(z^(z>>30))*0xBF58476D1CE4E5B9ull;z=(z^(z>>27))*0x94D049BB133111EBull;return z^(z>>31);}
// bucket of sample i: uniform over the first K of a random permutation-ish spread over nb buckets
__device__ __forceinline__ uint32_t bucket(uint64_t i, uint32_t K, uint32_t nb){
  uint32_t k = (uint32_t)(mix(i*0x9E3779B97F4A7C15ull+1) % K);
  return (uint32_t)(((uint64_t)k * 2654435761u) % nb);
}
template<int MODE> __global__ void acc(float *h, uint64_t n, uint32_t K, uint32_t nb){
  uint64_t stride=(uint64_t)gridDim.x*blockDim.x;
  for(uint64_t i=blockIdx.x*(uint64_t)blockDim.x+threadIdx.x;i<n;i+=stride){
    uint32_t b=bucket(i,K,nb); float c=(float)(i&255)*(1.f/255.f);
    float *p=h+4*(uint64_t)b;
    if(MODE==0){atomicAdd(p,c);atomicAdd(p+1,c*.5f);atomicAdd(p+2,c*.25f);atomicAdd(p+3,255.f);}
    if(MODE==1){
#if __CUDACC_VER_MAJOR__>=12
      atomicAdd((float4*)p, make_float4(c,c*.5f,c*.25f,255.f));
#endif
    }
    if(MODE==2){unsigned long long *q=(unsigned long long*)p; unsigned v=(unsigned)(c*256.f);
      atomicAdd(q,(unsigned long long)v|((unsigned long long)(v>>1)<<32)); atomicAdd(q+1,(unsigned long long)(v>>2)|(1ull<<32));}
    if(MODE==3){atomicAdd(p,c);}
    if(MODE==4){ asm volatile("red.global.add.v4.f32 [%0], {%1,%2,%3,%4};"::"l"(p),"f"(c),"f"(c*.5f),"f"(c*.25f),"f"(255.f):"memory"); }
    if(MODE==5){ asm volatile("red.global.add.v2.f32 [%0], {%1,%2};"::"l"(p),"f"(c),"f"(c*.5f):"memory"); asm volatile("red.global.add.v2.f32 [%0], {%1,%2};"::"l"(p+2),"f"(c*.25f),"f"(255.f):"memory");}
  }
}
template<int M> float run(float*h,uint64_t n,uint32_t K,uint32_t nb){
  cudaEvent_t a,b;cudaEventCreate(&a);cudaEventCreate(&b);float best=1e9;
  for(int r=0;r<5;r++){cudaMemset(h,0,16ull*nb);cudaEventRecord(a);acc<M><<<132*8,256>>>(h,n,K,nb);cudaEventRecord(b);cudaEventSynchronize(b);float ms;cudaEventElapsedTime(&ms,a,b);if(ms<best)best=ms;}
  cudaError_t e=cudaGetLastError(); if(e) printf("err %s\n",cudaGetErrorString(e));
  return best;
}
int main(){
  uint64_t n=947000000ull; uint32_t nb=3200*2368; float*h; cudaMalloc(&h,16ull*nb);
  uint32_t Ks[]={20000,170000,1000000,7577600};
  const char*names[]={"4x f32","v4 atomicAdd","2x u64","1x f32","red.v4 asm","2x red.v2"};
  printf("%-14s","K occupied");for(int m=0;m<6;m++)printf(" %13s",names[m]);printf("   (G samples/s)\n");
  for(uint32_t K:Ks){ printf("%-14u",K); float t[6]={run<0>(h,n,K,nb),run<1>(h,n,K,nb),run<2>(h,n,K,nb),run<3>(h,n,K,nb),run<4>(h,n,K,nb),run<5>(h,n,K,nb)};
    for(int m=0;m<6;m++)printf(" %13.1f",n/t[m]/1e6); printf("\n");}
  // pure generation cost
  return 0;
}
